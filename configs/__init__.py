"""Data shipped with the emulator (SoC profiles, return-code tables, acl.json examples).

A package only so that ``importlib.resources`` finds the files in editable and regular installs alike.
"""
