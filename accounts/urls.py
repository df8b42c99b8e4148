from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("signup/sent/", views.signup_sent, name="signup_sent"),
    path("signup/confirm/<str:token>/", views.signup_confirm, name="signup_confirm"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("organisation/", views.organization, name="organization"),
    path("organisation/new/", views.organization_create, name="organization_create"),
    path("organisation/switch/", views.switch_organization, name="switch_organization"),
    path("invitation/<str:token>/", views.invitation, name="invitation"),
    path("tokens/", views.api_tokens, name="api_tokens"),
    path("tokens/<int:pk>/revoke/", views.api_token_revoke, name="api_token_revoke"),
    path("password/", views.password_change, name="password_change"),
    path("password-reset/", views.password_reset, name="password_reset"),
    path("password-reset/sent/", views.password_reset_done, name="password_reset_done"),
    path(
        "password-reset/<uidb64>/<token>/",
        views.password_reset_confirm,
        name="password_reset_confirm",
    ),
    path("password-reset/done/", views.password_reset_complete, name="password_reset_complete"),
]
