namespace BenchDashboard.Core.Data;

/// <summary>
/// An element of the data-protection key ring (a key or a revocation, as XML) kept in the results database so
/// that every dashboard on it reads the others' cookies and forms. The dashboard reads and writes the ring through
/// ASP.NET Core's own store over this table; here it is only part of the schema and of a history's move.
/// </summary>
public sealed class KeyRingElement
{
    public int Id { get; set; }
    public string? FriendlyName { get; set; }
    public string? Xml { get; set; }
}
