# The trade-route mapper's C loops, built where a compiler is (the slim image has none).
FROM python:3.11 AS native
COPY trade/routes/csrc/native.c /src/
RUN cc -O2 -std=c99 -shared -fPIC -o /src/native.so /src/native.c

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml ./
COPY . .
COPY --from=native /src/native.so trade/routes/csrc/native.so
RUN pip install --no-cache-dir . && \
    SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput
USER nobody
EXPOSE 8000
CMD ["gunicorn", "ftcamp.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "2"]
