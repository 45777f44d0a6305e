"""Claim checking: split an answer into claims, check each against evidence, give typed findings.

Where things are:

- ``claims``: the answer cut into claims (and evidence cut into units), with ``sentences`` (shared with kb and ask);
  ``units``: the evidence units indexing stores (kb.models.ChunkUnit).
- ``base``: ``EvidenceCandidate``, ``CheckOutcome``, the ``ClaimChecker`` protocol; ``findings``: ``Finding``.
- ``builtin``: the offline checker (its docstring explains the approach); ``external``: AlignScore, LLM judge.
- ``text``, ``quantity_words``, ``quantities``, ``analysis``, ``windows``: parsing for the built-in checker.
- ``rules/``: one module per family of rules, each returning findings; ``registry.RULES`` lists them.
- ``scoring``: findings and soft measures to a score, and to reasons; ``verdicts``: the verdict bands.
- ``selftest``: labelled claims synthesised from a document, to learn how well the checker knows it; each
  language's variants are in ``languages/`` (``en_selftest``, ``zh_selftest``).
"""
