"""The slot-accounting host link: the terminal's client side and the reference host."""
