module github.com/latchkit/latch/scripts/licenses

go 1.26.8

require github.com/google/licensecheck v0.3.1
