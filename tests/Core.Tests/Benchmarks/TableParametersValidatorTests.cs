using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Tables;

namespace BenchDashboard.Core.Tests.Benchmarks;

public class TableParametersValidatorTests
{
    static readonly RunLimits Limits = new() { MaxRequests = 1000, MaxDurationSeconds = 60, MaxConcurrency = 8, MaxWarmupRequests = 80 };
    static readonly TableParameters Valid = new() { Connection = "tables", Requests = 100 };

    static Dictionary<string, string[]> Validate(TableParameters p) => TableParametersValidator.Validate(p, Limits, name => name == "tables");

    [Fact]
    public void TheSeedsMatrixIsValidAndHasEightVariantsInOrder()
    {
        Assert.Empty(Validate(Valid));
        Assert.Equal(
            ["single/expect-on/nagle-on", "single/expect-on/nagle-off", "single/expect-off/nagle-on", "single/expect-off/nagle-off",
             "batch/expect-on/nagle-on", "batch/expect-on/nagle-off", "batch/expect-off/nagle-on", "batch/expect-off/nagle-off"],
            Valid.Variants().Select(v => v.Series));
    }

    [Fact]
    public void TheBaselineIsBothTogglesOnAsInTheSeedOrTheFirstVariantWithoutIt()
    {
        Assert.Equal("single/expect-on/nagle-on", Valid.Baseline()!.Series);
        Assert.Equal("batch/expect-on/nagle-on", (Valid with { Operations = [TableOperation.Batch, TableOperation.Single] }).Baseline()!.Series);
        Assert.Equal("batch/expect-off/nagle-off", (Valid with { Operations = [TableOperation.Batch], Expect100Continue = [false], Nagle = [false, true] }).Baseline()!.Series);
    }

    [Fact]
    public void TheConnectionMustBeAConfiguredName()
    {
        Assert.Contains("Name the connection string", Validate(Valid with { Connection = " " })["connection"].Single());
        Assert.Contains("ConnectionStrings:other", Validate(Valid with { Connection = "other" })["connection"].Single());
    }

    [Fact]
    public void AConnectionStringTheTableKindCannotUseIsAFieldErrorThatDoesNotQuoteIt()
    {
        var strings = new Dictionary<string, string>
        {
            ["tables"] = "TableEndpoint=https://acct.table.core.windows.net;Credential=ManagedIdentity",
            ["plain"] = "TableEndpoint=http://acct.example;Credential=ManagedIdentity;Secret=s3cret",
        };
        Dictionary<string, string[]> Check(string name) =>
            TableParametersValidator.Validate(Valid with { Connection = name }, Limits, strings.ContainsKey, n => strings.GetValueOrDefault(n));

        Assert.Empty(Check("tables"));
        var error = Check("plain")["connection"].Single();
        Assert.Equal("The connection string 'plain' cannot be used for Table Storage: Credential (Microsoft Entra sign-in) needs an https:// Table endpoint: a token is never sent over http.", error);
    }

    [Theory]
    [InlineData("ab")]
    [InlineData("1table")]
    [InlineData("has-dash")]
    [InlineData("Tables")]
    public void ATableNameFollowsTheServicesRules(string table) => Assert.Contains("table", Validate(Valid with { Table = table }).Keys);

    [Fact]
    public void TheMatrixNeedsEachChoiceOnceAndBatchesOfOneTo100()
    {
        Assert.Equal("Choose single, batch or both.", Validate(Valid with { Operations = [] })["operations"].Single());
        Assert.Equal("Each operation can appear once.", Validate(Valid with { Operations = [TableOperation.Batch, TableOperation.Batch] })["operations"].Single());
        Assert.Equal("Choose on, off or both.", Validate(Valid with { Nagle = [] })["nagle"].Single());
        Assert.Equal("Each setting can appear once.", Validate(Valid with { Expect100Continue = [true, true] })["expect100Continue"].Single());
        Assert.Contains("batchSize", Validate(Valid with { BatchSize = 101 }).Keys);
        Assert.Contains("batchSize", Validate(Valid with { BatchSize = 0 }).Keys);
        Assert.Contains("entityBytes", Validate(Valid with { EntityBytes = 32 * 1024 + 1 }).Keys);
        Assert.Empty(Validate(Valid with { BatchSize = 100, EntityBytes = 32 * 1024 })); // 100 × 32 KiB stays under a batch's 4 MiB
    }

    [Fact]
    public void RequestsAndWarmUpCountPerVariantAgainstTheRunLimits()
    {
        Assert.Empty(Validate(Valid with { Requests = 125 })); // × 8 variants = 1,000
        Assert.Contains("times the 8 variants", Validate(Valid with { Requests = 126 })["requests"].Single());
        Assert.Empty(Validate(Valid with { Requests = 250, Operations = [TableOperation.Batch], Nagle = [true] })); // 2 variants
        Assert.Contains("warmupRequests", Validate(Valid with { WarmupRequests = 11 }).Keys);
        Assert.Contains("either", Validate(Valid with { DurationSeconds = 10 })["requests"].Single());
        Assert.Empty(Validate(Valid with { Requests = null, DurationSeconds = 60 }));
        Assert.Contains("concurrency", Validate(Valid with { Concurrency = 9 }).Keys);
    }
}
