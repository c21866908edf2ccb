FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml ./
COPY . .
RUN pip install --no-cache-dir . && \
    SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput
USER nobody
EXPOSE 8000
CMD ["gunicorn", "ftcamp.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "2"]
