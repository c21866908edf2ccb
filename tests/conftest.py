import pytest


@pytest.fixture(scope="session", autouse=True)
def _collected_static(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Tests run with production settings (manifest static storage): collect static once."""
    from django.conf import settings
    from django.core.management import call_command

    if not settings.DEBUG:
        call_command("collectstatic", "--noinput", verbosity=0)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings) -> None:  # type: ignore[no-untyped-def]
    # PBKDF2's deliberate slowness buys nothing in tests and costs most of their time.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
