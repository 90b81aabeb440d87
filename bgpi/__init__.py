"""bgpi: the software of a physical backgammon board run by a Raspberry Pi."""

__version__ = "0.1.0"
