from django.urls import path, register_converter

from economy import views


class LedgerFormat:
    """Only the export formats offered: anything else is not a page (a 404)."""

    regex = "csv|json"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(LedgerFormat, "ledgerfmt")

P = "campaigns/<int:campaign_id>/powers/<str:power_key>/"

urlpatterns = [
    path(P + "orders/", views.orders, name="orders"),
    path(P + "orders/form/", views.order_form, name="order-form"),
    path(P + "orders/validate/", views.validate_order, name="order-validate"),
    path(P + "orders/add/", views.add_order, name="order-add"),
    path(P + "orders/<int:position>/edit/", views.edit_order, name="order-edit"),
    path(P + "orders/<int:position>/remove/", views.remove_order, name="order-remove"),
    path(P + "orders/<int:position>/move/", views.move_order, name="order-move"),
    path(P + "declare/<str:group_key>/", views.declare, name="declare"),
    path(P + "submit/", views.submit, name="sheet-submit"),
    path(P + "projection/", views.projection, name="projection"),
    path(P + "rounds/<int:number>/", views.report, name="report"),
    path(P + "ledger.<ledgerfmt:fmt>", views.ledger_export, name="ledger-export"),
    path("campaigns/<int:campaign_id>/rounds/", views.history, name="history"),
    path("rules/", views.rules_guide, name="rules"),
]
