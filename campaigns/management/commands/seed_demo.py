from typing import Any

from django.core.management.base import BaseCommand

from campaigns.demo import build_demo


class Command(BaseCommand):
    help = "Create the demo campaign with one login per power (idempotent) and print the logins."

    def handle(self, *args: Any, **options: Any) -> None:
        campaign, logins = build_demo()
        self.stdout.write(self.style.SUCCESS(f"Demo campaign ready: {campaign.name}"))
        self.stdout.write("Logins (username / password):")
        for login in logins:
            self.stdout.write(f"  {login.username:<8} {login.password:<18} {login.role}")
