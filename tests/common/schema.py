"""A document's errors against one of docs/*.schema.json: the project's own
validator (tests/provenance/mini_schema.py, standard library only) always,
and Python's jsonschema package too where it is installed (Debian's
python3-jsonschema; a bare GPU machine has none). Both must accept it."""
import json
import os
import sys

_here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(_here, '..', 'provenance'))
import mini_schema  # noqa: E402

try:
    import jsonschema
except ImportError:
    jsonschema = None

_schemas = {}


def errors(doc, name):
    """The messages of both validators for doc against docs/NAME."""
    if name not in _schemas:
        with open(os.path.join(_here, '..', '..', 'docs', name)) as f:
            _schemas[name] = json.load(f)
    schema = _schemas[name]
    errs = list(mini_schema.errors(schema, doc))
    if jsonschema:
        errs += [e.message for e in
                 jsonschema.Draft202012Validator(schema).iter_errors(doc)]
    return errs
