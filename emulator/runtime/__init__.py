"""The emulated ACL runtime core: devices, contexts, streams, events and who owns them.

``core.Runtime`` is what libruntime keeps in its statics; ``emulator.acl.rt`` is the pyACL
``acl.rt`` face in front of it, which does the ACL layer's argument checks and calls in here.
"""
