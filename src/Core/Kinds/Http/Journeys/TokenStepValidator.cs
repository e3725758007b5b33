namespace BenchDashboard.Core.Kinds.Http.Journeys;

/// <summary>
/// A token step (<see cref="HttpTokenStep"/>): its name (checked with every step's) and its token, nothing of a request;
/// its variable is defined for the steps after it. Errors keyed as the API names them (<c>steps[1].token.scope</c>).
/// </summary>
static class TokenStepValidator
{
    public static void Validate(HttpStep step, string at, Action<string, string> add, ISet<string> defined)
    {
        const string none = "A token step gets a token and sends no request: leave {0} out.";
        if (!string.IsNullOrEmpty(step.Url)) add(at + "url", string.Format(none, "url"));
        if (step.Method is not "GET") add(at + "method", string.Format(none, "method"));
        if (step.Headers is { Count: > 0 }) add(at + "headers", string.Format(none, "headers"));
        if (step.Body is not null) add(at + "body", string.Format(none, "body"));
        if (step.Extract is { Count: > 0 }) add(at + "extract", string.Format(none, "extract"));
        if (step.Checks is { Count: > 0 }) add(at + "checks", string.Format(none, "checks"));
        if (step.ThinkTime is not null) add(at + "thinkTime", string.Format(none, "thinkTime"));

        var token = step.Token!;
        var key = at + "token.";
        if (string.IsNullOrEmpty(token.Scope) || token.Scope.Length > HttpTokenStep.MaxScopeLength || token.Scope.Any(c => char.IsWhiteSpace(c) || char.IsControl(c)))
            add(key + "scope", $"Enter one scope of at most {HttpTokenStep.MaxScopeLength} characters without spaces, e.g. api://<application id>/.default.");
        if (token.Variable is null || !Template.VariableName().IsMatch(token.Variable))
            add(key + "variable", "A variable's name is a letter or '_' then letters, digits or '_', at most 64.");
        else if (Template.BuiltIns.Contains(token.Variable))
            add(key + "variable", $"'{token.Variable}' is a built-in; choose another name.");
        else
            defined.Add(token.Variable);
        if (!Enum.IsDefined(token.Credential))
            add(key + "credential", "The credential is managedIdentity (the default) or default (DefaultAzureCredential).");
        if (token.ClientId is not null && !Guid.TryParseExact(token.ClientId, "D", out _))
            add(key + "clientId", "A user-assigned managed identity's client id is a GUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx); leave it out for the system-assigned one.");
    }
}
