"""Claim checking: split an answer into claims, check each against evidence, give typed findings.

Where things are:

- ``claims``: the answer cut into claims (and evidence cut into units), with ``sentences`` (shared with kb and ask).
- ``base``: ``EvidenceCandidate``, ``CheckOutcome``, the ``ClaimChecker`` protocol; ``findings``: ``Finding``.
- ``builtin``: the offline checker (its docstring explains the approach); ``external``: AlignScore, LLM judge.
- ``text``, ``quantity_words``, ``quantities``, ``analysis``, ``windows``: parsing for the built-in checker.
- ``rules/``: one module per family of rules, each returning findings; ``registry.RULES`` lists them.
- ``scoring``: findings and soft measures to a score, and to reasons; ``verdicts``: the verdict bands.
"""
