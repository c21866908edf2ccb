from django.contrib import admin
from django.urls import include, path

from ftcamp import views

admin.site.site_header = "FTCamp administration"
admin.site.site_title = "FTCamp admin"
admin.site.index_title = "Your campaigns, their players and rounds"

handler400 = "ftcamp.views.bad_request"
handler403 = "ftcamp.views.permission_denied"
handler404 = "ftcamp.views.page_not_found"
handler500 = "ftcamp.views.server_error"

urlpatterns = [
    path("favicon.ico", views.favicon, name="favicon"),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/", include("ftcamp.api_urls")),
    path("", include("campaigns.urls")),
    path("", include("campaigns.organiser_urls")),
    path("", include("notices.urls")),
    path("", include("powers.urls")),
    path("", include("economy.urls")),
    path("", include("fleet.urls")),
    path("", include("command.urls")),
    path("", include("trade.route_urls")),
    path("", include("campaigns.map_urls")),
    path("", include("trade.urls")),
    path("", include("diplomacy.urls")),  # issue 31
]
