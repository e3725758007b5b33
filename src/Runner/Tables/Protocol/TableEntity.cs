namespace BenchDashboard.Runner.Tables.Protocol;

/// <summary>An entity as the benchmark writes it: its keys and one string property of a chosen size.</summary>
public sealed record TableEntity(string PartitionKey, string RowKey, string Payload);
