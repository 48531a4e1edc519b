"""The site answers, in Danish by default."""

import pytest


@pytest.mark.django_db
def test_home_page_in_danish(client):
    """The landing page renders with lang="da"."""
    response = client.get("/")
    assert response.status_code == 200
    assert b'lang="da"' in response.content
