from django.contrib import admin
from django.urls import include, path

admin.site.site_header = "FTCamp administration"
admin.site.site_title = "FTCamp admin"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/", include("ftcamp.api_urls")),
    path("", include("powers.urls")),
    path("", include("economy.urls")),
    path("", include("trade.route_urls")),
    path("", include("powers.map_urls")),
    path("", include("trade.urls")),
]
