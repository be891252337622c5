"""An independent OFREP client for the serve tests: the official OpenFeature Python SDK with its OFREP provider.

    ofrep_client.py BASE_URL [TOKEN] < requests

Each line of standard input is a JSON array [type, key, default] (type: bool, int, float, str, object); each answer
is one JSON line on standard output: key, value, reason, variant, error (the SDK's error code, or null).
"""
import json
import sys

from openfeature import api
from openfeature.contrib.provider.ofrep import OFREPProvider
from openfeature.evaluation_context import EvaluationContext


def text(value):
    return None if value is None else str(getattr(value, "value", value))


def main():
    base = sys.argv[1]
    token = sys.argv[2] if len(sys.argv) > 2 else None
    headers = (lambda: {"Authorization": "Bearer " + token}) if token else None
    api.set_provider(OFREPProvider(base, headers_factory=headers, timeout=10))
    client = api.get_client()
    context = EvaluationContext(targeting_key="qa-device-1", attributes={"country": "JP", "osVersion": "18.2"})
    methods = {
        "bool": client.get_boolean_details,
        "int": client.get_integer_details,
        "float": client.get_float_details,
        "str": client.get_string_details,
        "object": client.get_object_details,
    }
    for line in sys.stdin:
        if not line.strip():
            continue
        kind, key, default = json.loads(line)
        details = methods[kind](key, default, context)
        print(json.dumps({
            "key": key,
            "value": details.value,
            "reason": text(details.reason),
            "variant": details.variant,
            "error": text(details.error_code),
            "message": details.error_message,
        }), flush=True)


if __name__ == "__main__":
    main()
