from django.apps import AppConfig


class PowersConfig(AppConfig):
    name = "powers"
