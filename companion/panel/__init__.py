"""The panel: the screens drawn with pygame, the keyboard, the display and its sleep.

It reads the core's state and hands it input events; it never stores or serves.
"""
