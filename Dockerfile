# Production image for web and worker (see docker-compose.yml).
FROM python:3.12-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 UV_PYTHON_DOWNLOADS=never \
    UV_PROJECT_ENVIRONMENT=/opt/venv PATH=/opt/venv/bin:$PATH
RUN apt-get update \
 && apt-get install -y --no-install-recommends gettext libpango-1.0-0 libpangoft2-1.0-0 \
      libharfbuzz-subset0 fonts-noto-cjk \
 && rm -rf /var/lib/apt/lists/* \
 && pip install --no-cache-dir uv \
 && useradd --create-home --uid 1000 advisor
WORKDIR /app
COPY pyproject.toml uv.lock ./
RUN uv sync --frozen --no-dev --no-install-project
COPY . .
# Catalogs and static files are compiled into the image; the build needs no secret.
RUN DEBUG=true python manage.py compilemessages -v0 \
 && DEBUG=false SECRET_KEY=build-only python manage.py collectstatic --noinput -v0 \
 && chown -R advisor /app/var
USER advisor
EXPOSE 8000
CMD ["gunicorn", "advisor.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]
