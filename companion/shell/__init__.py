"""The shell: the app loop, the command line, the configuration and the devices, wired.

The one layer that imports every other one; nothing imports it.
"""
