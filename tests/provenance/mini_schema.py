"""A validator for the part of JSON Schema (2020-12) that docs/log.schema.json
and docs/stats.schema.json use: type, enum, const, pattern, minLength,
minimum, maximum, properties, required, additionalProperties, items,
minItems, allOf, if/then/else and local $ref. Any other keyword in
the schema is an error, so the schema cannot quietly rely on one this does
not check. Only the Python standard library (Debian 12's python3)."""
import re

KNOWN = {'$schema', '$id', '$defs', 'title', 'description', 'type', 'enum',
         'pattern', 'minLength', 'minimum', 'maximum', 'properties',
         'required', 'additionalProperties', 'items', '$ref', 'const',
         'minItems', 'allOf', 'if', 'then', 'else'}


def _is_type(value, name):
    if name == 'null':
        return value is None
    if name == 'boolean':
        return isinstance(value, bool)
    if name == 'integer':
        return isinstance(value, int) and not isinstance(value, bool)
    if name == 'number':
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if name == 'string':
        return isinstance(value, str)
    if name == 'array':
        return isinstance(value, list)
    if name == 'object':
        return isinstance(value, dict)
    raise ValueError('unknown type %r in the schema' % name)


def errors(schema, value, root=None, path='$'):
    """Every way value breaks schema, as 'path: why' strings."""
    root = schema if root is None else root
    unknown = set(schema) - KNOWN
    if unknown:
        raise ValueError('%s: schema keywords this validator does not know: %s'
                         % (path, sorted(unknown)))
    if '$ref' in schema:
        ref = schema['$ref']
        if not ref.startswith('#/'):
            raise ValueError('%s: only local $ref: %s' % (path, ref))
        target = root
        for part in ref[2:].split('/'):
            target = target[part]
        return errors(target, value, root, path)
    out = []
    if 'type' in schema:
        types = schema['type'] if isinstance(schema['type'], list) else [schema['type']]
        if not any(_is_type(value, t) for t in types):
            return ['%s: %r is not %s' % (path, value, ' or '.join(types))]
    if 'const' in schema and not (value == schema['const'] and
                                  type(value) is type(schema['const'])):
        out.append('%s: %r is not %r' % (path, value, schema['const']))
    for i, part in enumerate(schema.get('allOf', [])):
        out += errors(part, value, root, path)
    if 'if' in schema:
        taken = 'then' if not errors(schema['if'], value, root, path) else 'else'
        if taken in schema:
            out += errors(schema[taken], value, root, path)
    if 'enum' in schema and value not in schema['enum']:
        out.append('%s: %r not one of %r' % (path, value, schema['enum']))
    if isinstance(value, str):
        if 'pattern' in schema and not re.search(schema['pattern'], value):
            out.append('%s: %r does not match %s' % (path, value, schema['pattern']))
        if len(value) < schema.get('minLength', 0):
            out.append('%s: %r is too short' % (path, value))
    if _is_type(value, 'number'):
        if 'minimum' in schema and value < schema['minimum']:
            out.append('%s: %r < %r' % (path, value, schema['minimum']))
        if 'maximum' in schema and value > schema['maximum']:
            out.append('%s: %r > %r' % (path, value, schema['maximum']))
    if isinstance(value, dict):
        props = schema.get('properties', {})
        for key in schema.get('required', []):
            if key not in value:
                out.append('%s: no %r' % (path, key))
        extra = schema.get('additionalProperties', True)
        for key, item in value.items():
            sub = '%s.%s' % (path, key)
            if key in props:
                out += errors(props[key], item, root, sub)
            elif extra is False:
                out.append('%s: key not allowed' % sub)
            elif isinstance(extra, dict):
                out += errors(extra, item, root, sub)
    if isinstance(value, list) and len(value) < schema.get('minItems', 0):
        out.append('%s: fewer than %d items' % (path, schema['minItems']))
    if isinstance(value, list) and 'items' in schema:
        for i, item in enumerate(value):
            out += errors(schema['items'], item, root, '%s[%d]' % (path, i))
    return out
