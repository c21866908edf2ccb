# The trade-route mapper's C loops: pip builds them in place (setup.py) where a C compiler is,
# and the slim image has none, so the full one builds them (no dependencies needed for that).
FROM python:3.11 AS native
WORKDIR /src
COPY pyproject.toml setup.py ./
COPY trade/ trade/
RUN pip install --no-cache-dir --no-deps -e . --config-settings editable_mode=compat

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml ./
COPY . .
COPY --from=native /src/trade/routes/csrc/ trade/routes/csrc/
RUN pip install --no-cache-dir . && \
    SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput
USER nobody
EXPOSE 8000
# request line and headers capped here; bodies by the proxy and ftcamp/middleware.py (issue 32)
CMD ["gunicorn", "ftcamp.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "2", \
     "--timeout", "30", "--limit-request-line", "4094", "--limit-request-fields", "100", \
     "--limit-request-field_size", "8190"]
