"""Map routes; included from the root URLconf."""

from django.urls import path

from campaigns import map_views

# Who may see each route (tests/web/test_access.py): the public map is for spectators too;
# a private map and its hex panel only for the power in the URL (a 404 for anyone else).
POLICY = {
    "map-public": "public",
    "map-public-svg": "public",
    "map-public-hex": "public",
    "map-private": "owner",
    "map-private-svg": "owner",
    "map-private-hex": "owner",
}

urlpatterns = [
    path("campaigns/<int:campaign_id>/map/", map_views.public_map, name="map-public"),
    path("campaigns/<int:campaign_id>/map.svg", map_views.public_map_svg, name="map-public-svg"),
    path(
        "campaigns/<int:campaign_id>/map/hex/<str:hex>/",
        map_views.public_hex,
        name="map-public-hex",
    ),
    path(
        "campaigns/<int:campaign_id>/powers/<str:power_key>/map/",
        map_views.private_map,
        name="map-private",
    ),
    path(
        "campaigns/<int:campaign_id>/powers/<str:power_key>/map.svg",
        map_views.private_map_svg,
        name="map-private-svg",
    ),
    path(
        "campaigns/<int:campaign_id>/powers/<str:power_key>/map/hex/<str:hex>/",
        map_views.private_hex,
        name="map-private-hex",
    ),
]
