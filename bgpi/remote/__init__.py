"""Boards that play each other: the wire between two bgpi boards, through an MQTT broker (docs/remote.md)."""
