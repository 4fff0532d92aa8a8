"""Tests of what stands around the package: scripts, demos, sealed evidence, the page in a
browser, the built wheel. Slower than the unit suite; .ci/run runs and counts both."""
