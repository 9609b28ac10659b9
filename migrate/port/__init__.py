"""`migrate port`: write the Keras rebuild of a TF1 `model_fn` and prove it with the parity engine.

The pipeline (`migrate.port.run.run_port`):

1. `contrib.install` gives the user's code a `tf.contrib` whose names run as
   their TF1-core twins (PORT.md lists each use); then
   `target.load_target` imports what TARGET names (a pair file's TF1 half, or
   ``module:function`` with ``--input-fn`` and ``--params``) into a `Target`;
2. `registry.porter_for(target)` picks the porter, which returns a `Port`
   (the files' text and the PORT.md rows) or raises `PortRefused` listing
   every `Problem` with file:line and what to do;
3. `writer.write_port` writes the files atomically into ``--out`` (a refused
   port writes PORT.md alone); `check.check_port` runs the staged parity on
   the written pair.py; `document` renders PORT.md with the verdict.

Extension points (one unit per file, discovered by importing the package):

* **porters** — `migrate/port/porters/<name>.py` defines
  ``PORTER = Porter(name, claims, port, priority)``: `claims(target)` says
  whether it ports this target (e.g. a `model_fn` that builds a canned
  estimator), `port(target, progress)` returns a `Port` whose ``files`` hold
  at least ``keras_model.py`` and ``pair.py``. The traced `model_fn` porter
  (`porters/traced.py`) has the lowest priority (1000), so a more specific
  porter (canned estimators) is tried first.
* **twins** — `migrate/port/twins/<idiom>.py` defines
  ``TWIN = Twin(name, match, priority)``: `match(op, view)` (a
  `graph.GraphView` of the traced graph) returns a `graph.Claim` — the ops it
  takes, its inputs and output, the Keras layer (`graph.LayerSpec`: attribute,
  constructor code, TF1 variable → Keras weight) or expression it becomes,
  and its PORT.md row — or None.
"""
