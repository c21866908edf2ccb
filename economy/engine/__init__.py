"""The pure round engine: no Django, DRF or Celery imports (style.md, "the boundary").

Entry points: ``resolve.resolve(state, orders, rng=None) -> Result`` resolves one round;
``codec.parse_state`` / ``codec.dump_state`` translate the ``ftcamp-case/1`` JSON;
``validate.check_order`` checks one order for forms and the API; ``case`` reads case files and
compares results with their ``expect``. See docs/engine.md for the step order.
"""
