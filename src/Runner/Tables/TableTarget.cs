using System.Net.Security;
using Azure.Core;
using Azure.Identity;
using BenchDashboard.Core.Kinds.Tables;

namespace BenchDashboard.Runner.Tables;

/// <summary>
/// The account one run talks to, with its Microsoft Entra credential when the connection names one: created
/// once per run, so every connection of the run shares one credential and its cached token (a token is fetched
/// by the create-table call before the first sample, and refreshed in the background before it expires).
/// </summary>
/// <param name="ServerCertificate">Overrides the handler's certificate check; null: the system's trust store.</param>
sealed record TableTarget(TableAccount Account, TokenCredential? Token, RemoteCertificateValidationCallback? ServerCertificate = null)
{
    public static TableTarget For(TableAccount account) => new(account, account.SignIn switch
    {
        TableSignIn.DefaultAzureCredential => new DefaultAzureCredential(new DefaultAzureCredentialOptions { ManagedIdentityClientId = account.ClientId }),
        TableSignIn.ManagedIdentity => new ManagedIdentityCredential(account.ClientId is { } id ? ManagedIdentityId.FromUserAssignedClientId(id) : ManagedIdentityId.SystemAssigned),
        _ => null,
    });
}
