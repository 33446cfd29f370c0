# Schemathesis hook of npm run conformance (loaded through SCHEMATHESIS_HOOKS): the built-in
# positive_data_acceptance, with the one rule the run adds. A schema-valid request refused with 400
# passes when the body's `error` is one of the operation's documented codes, which
# documented-codes.ts reads from the document into the JSON file named by
# CONFORMANCE_DOCUMENTED_CODES (operationId -> codes). Any other refusal fails as before.
import json
import os

import schemathesis
from schemathesis.checks import CHECKS
from schemathesis.openapi.checks import RejectedPositiveData
from schemathesis.specs.openapi import checks as openapi_checks

with open(os.environ["CONFORMANCE_DOCUMENTED_CODES"], encoding="utf-8") as file:
    DOCUMENTED_CODES = json.load(file)

_builtin = openapi_checks.positive_data_acceptance


def _documented_refusal(response, case) -> bool:
    if response.status_code != 400:
        return False
    codes = DOCUMENTED_CODES.get(case.operation.definition.raw.get("operationId"), [])
    try:
        body = json.loads(response.content)
    except ValueError:
        return False
    return isinstance(body, dict) and body.get("error") in codes


# The replacement keeps the built-in's name, so that `--checks all`, the reports and its settings
# still know it; Schemathesis refuses a second check of that name from another module.
CHECKS.unregister("positive_data_acceptance")


@schemathesis.check
def positive_data_acceptance(ctx, response, case):
    try:
        return _builtin(ctx, response, case)
    except RejectedPositiveData:
        if _documented_refusal(response, case):
            return None
        raise
