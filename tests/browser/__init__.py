"""Browser tests of the published site: headless Chromium, offline, over http on 127.0.0.1."""
