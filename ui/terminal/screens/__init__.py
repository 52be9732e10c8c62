"""The kiosk's screens, by name in the app's ScreenManager: attract, menu, turbo, stadium,
help, history (a service menu registers its own screen later; see :meth:`KioskApp.add_screen`)."""
