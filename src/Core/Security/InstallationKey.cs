namespace BenchDashboard.Core.Security;

/// <summary>
/// A secret of this installation kept in the results database, so every dashboard on it holds the same one
/// (today one: the fingerprint key, <see cref="Data.InstallationKeys.FingerprintKeyName"/>).
/// </summary>
public sealed class InstallationKey
{
    public required string Name { get; set; }

    /// <summary>The key's bytes in base64.</summary>
    public required string Value { get; set; }
}
