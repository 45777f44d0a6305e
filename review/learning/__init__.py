"""Learning from reviewers: their decisions become labels, labels refit the scoring model under a guard, and the
labels prove (or fail to prove) the leak budget that sets the release threshold.

- ``review_labels``: a decided answer's claims as ``ReviewLabel`` rows; what was said of an identical earlier answer;
- ``leak``: the leak rate at each threshold with a one-sided 95 % upper bound, and the threshold it allows;
- ``refit``: candidate models (refit with the labels at several weights, a moved threshold, a fit on the labels
  alone) chosen by cross-validation on the labels, and the guard a candidate must pass;
- ``adopted``: the model and release threshold the checker uses now;
- ``services``: adopt, roll back, run the learning job, update the leak estimate (each audited);
- ``simulation``: the whole loop on a labelled set, as a new customer's first reviews would drive it.
"""
