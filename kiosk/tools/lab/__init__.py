"""The test laboratory's submission: the requirement matrix and ``turbokiosk lab-package``."""
