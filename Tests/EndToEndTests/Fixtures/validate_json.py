"""Validates a JSON document (stdin) against a JSON Schema with the jsonschema package.

Usage: python3 validate_json.py SCHEMA_FILE [SCHEMA_DIR]
The schema's own "$schema" picks the draft (2020-12 for iapkg's, draft-04 for SARIF's).
Schemas in SCHEMA_DIR are registered under their "$id"s, so "$ref"s between them resolve
offline. Prints each violation and exits 1 if there is any, 0 if the document is valid.
"""
import json
import pathlib
import sys

import jsonschema

schema = json.loads(pathlib.Path(sys.argv[1]).read_text())
store = {}
if len(sys.argv) > 2:
    for path in pathlib.Path(sys.argv[2]).glob("*.json"):
        other = json.loads(path.read_text())
        store[other.get("$id", path.as_uri())] = other
store[schema.get("$id") or schema.get("id") or pathlib.Path(sys.argv[1]).resolve().as_uri()] = schema
document = json.load(sys.stdin)
cls = jsonschema.validators.validator_for(schema)
cls.check_schema(schema)
try:
    from referencing import Registry, Resource

    registry = Registry().with_resources((uri, Resource.from_contents(s)) for uri, s in store.items())
    validator = cls(schema, registry=registry)
except ImportError:  # jsonschema before 4.18 (Debian 12's 4.10)
    validator = cls(schema, resolver=jsonschema.RefResolver.from_schema(schema, store=store))
errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
for error in errors:
    print("/" + "/".join(str(p) for p in error.absolute_path) + ": " + error.message)
print(f"{cls.__name__}: {'invalid' if errors else 'valid'}")
sys.exit(1 if errors else 0)
