"""What every test shares: Hypothesis without its per-example deadline.

CI and the developers' machines run the suite beside other work (two cores, often
loaded), and an example that takes 300 ms there is slow, not wrong: the tests assert
behaviour, never time (benchmarks/ measures speed)."""

from hypothesis import settings

settings.register_profile("bgpi", deadline=None)
settings.load_profile("bgpi")
