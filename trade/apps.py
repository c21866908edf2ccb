from django.apps import AppConfig


class TradeConfig(AppConfig):
    name = "trade"
