"""heat-companion: a race director for Heat: Pedal to the Metal."""

__version__ = "0.1.0"
