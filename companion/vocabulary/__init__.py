"""The words the layers share: what a phone asks, and the records storage hands back.

Plain values with no behaviour beyond parsing, below both the core and storage.
"""
