namespace BenchDashboard.Core.Kinds.Http.Journeys;

/// <summary>
/// A step that gets a bearer token from Microsoft Entra (through Azure.Identity) into <see cref="Variable"/> for the
/// steps after it (<c>"Authorization": "Bearer {{token}}"</c>). It sends nothing to the target: the token comes from
/// the platform's identity endpoint, once per run and again before it expires, never once per iteration. The token
/// itself is never stored nor shown.
/// </summary>
public sealed record HttpTokenStep
{
    /// <summary>What the token is for, one scope: <c>api://&lt;application id&gt;/.default</c>.</summary>
    public string Scope { get; init; } = "";

    /// <summary>The variable the token goes into.</summary>
    public string Variable { get; init; } = "token";

    public HttpTokenCredential Credential { get; init; } = HttpTokenCredential.ManagedIdentity;

    /// <summary>A user-assigned managed identity's client id; null: the system-assigned one.</summary>
    public string? ClientId { get; init; }

    public const int MaxScopeLength = 512;

    /// <summary>How the run signs in, in words for its notes.</summary>
    public string Describe() =>
        (Credential == HttpTokenCredential.Default ? "DefaultAzureCredential" : "managed identity")
        + (ClientId is null ? "" : $", client id {ClientId}") + $", scope {Scope}";
}

/// <summary>Which Azure.Identity credential gets a journey's token.</summary>
public enum HttpTokenCredential
{
    /// <summary><c>ManagedIdentityCredential</c>: on App Service, the platform's identity endpoint (IDENTITY_ENDPOINT).</summary>
    ManagedIdentity,

    /// <summary><c>DefaultAzureCredential</c>: environment, workload or managed identity, then developer sign-ins (az login …).</summary>
    Default,
}
