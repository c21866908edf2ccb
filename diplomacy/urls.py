from django.urls import path

from diplomacy import views

P = "campaigns/<int:campaign_id>/powers/<str:power_key>/messages/"

# who may see each route (tests/web/test_access.py); a conversation the power is not in is a
# 404 like one that does not exist (tests/web/test_diplomacy_secrecy.py)
POLICY = {
    "my-messages": "auth",
    "diplomacy-messages": "owner",
    "diplomacy-start": "owner",
    "diplomacy-thread": "owner",
    "diplomacy-poll": "owner",
    "diplomacy-post": "owner",
    "diplomacy-deal": "owner",
    "api-conversations": "member",
    "api-conversation": "member",
}

urlpatterns = [
    path("messages/", views.my_messages, name="my-messages"),
    path(P, views.messages_page, name="diplomacy-messages"),
    path(P + "new/", views.start, name="diplomacy-start"),
    path(P + "<int:conversation_id>/", views.thread, name="diplomacy-thread"),
    path(P + "<int:conversation_id>/poll/", views.poll, name="diplomacy-poll"),
    path(P + "<int:conversation_id>/post/", views.post, name="diplomacy-post"),
    path(P + "<int:conversation_id>/deal/", views.deal, name="diplomacy-deal"),
]
