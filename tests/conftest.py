"""What every test shares: Hypothesis without its per-example deadline or its "too slow" check.

CI and the developers' machines run the suite beside other work (two cores, often
loaded), and an example that takes 300 ms there is slow, not wrong: the tests assert
behaviour, never time (benchmarks/ measures speed)."""

from hypothesis import HealthCheck, settings

settings.register_profile("bgpi", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("bgpi")
