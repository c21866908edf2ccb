"""The fleet's home (issue 28): designs, craft, work in progress, groups and statics as one power
sees them, battle records, loans and transfers, and their pages and API. Writes are
``battles`` (battle records: entered, answered, taking effect) and ``pacts`` (loans and
transfers); reads are ``selectors`` (a power's fleet, its Fleet page, its order choices, its
records and pacts) and ``costs`` (what a fleet order costs); ``battle_text`` reads and writes a
record's craft lines. The models stay in ``powers.models.fleet`` and ``powers.models.pacts``
(the README says why)."""
