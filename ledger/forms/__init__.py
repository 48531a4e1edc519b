"""Forms by area; one rate-card form shared by the admin and the set-up screens."""
