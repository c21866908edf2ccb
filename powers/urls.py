from django.urls import path

from powers import views

urlpatterns = [
    path("account/api-token/", views.api_token, name="api-token"),
]
