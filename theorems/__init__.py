"""The papers whose claims dpverify checks: one package per paper (``theorems/<key>/``), each with
its claims (``CLAIMS``), the functions only its proofs use, and its experiments. Each registers
itself in the ``dpverify.papers`` entry-point group (see ``pyproject.toml``)."""
