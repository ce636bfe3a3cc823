"""The pure core: the controller that turns input events into effects, and the words it says.

Nothing here draws, stores or serves: the panel, the web page and the shell read the
controller's state and carry out its effects.
"""
