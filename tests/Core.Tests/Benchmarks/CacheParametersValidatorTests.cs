using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Cache;

namespace BenchDashboard.Core.Tests.Benchmarks;

public class CacheParametersValidatorTests
{
    static readonly RunLimits Limits = new() { MaxRequests = 1000, MaxDurationSeconds = 60, MaxConcurrency = 8 };
    static readonly CacheParameters Valid = new() { Requests = 100 };
    static readonly Func<string, bool> OnlyPrimary = name => name == "primary";

    static Dictionary<string, string[]> Validate(CacheParameters p) => CacheParametersValidator.Validate(p, Limits, OnlyPrimary);

    [Fact]
    public void TheSeedDefaultsInMemoryAreValid() => Assert.Empty(Validate(Valid));

    [Fact]
    public void RedisNeedsTheNameOfAConfiguredConnectionString()
    {
        Assert.Contains("Name the connection string", Validate(Valid with { Backend = CacheBackend.Redis })["connection"].Single());
        Assert.Contains("ConnectionStrings:secondary", Validate(Valid with { Backend = CacheBackend.Redis, Connection = "secondary" })["connection"].Single());
        Assert.Empty(Validate(Valid with { Backend = CacheBackend.Redis, Connection = "primary" }));
    }

    [Fact]
    public void PhasesMustBeChosenOnceEach()
    {
        Assert.Contains("phases", Validate(Valid with { Phases = [] }).Keys);
        Assert.Contains("once", Validate(Valid with { Phases = [CachePhase.Write, CachePhase.Write] })["phases"].Single());
        Assert.Contains("phases", Validate(Valid with { Phases = [(CachePhase)7] }).Keys);
    }

    [Fact]
    public void TheLimitOnRequestsCoversAllPhases()
    {
        Assert.Empty(Validate(Valid with { Requests = 250 }));                 // 4 × 250 = 1,000
        Assert.Contains("RunLimits:MaxRequests", Validate(Valid with { Requests = 251 })["requests"].Single());
        Assert.Empty(Validate(Valid with { Requests = 1000, Phases = [CachePhase.ReadMiss] }));
        Assert.Contains("durationSeconds", Validate(Valid with { Requests = null, DurationSeconds = 16 }).Keys); // 4 × 16 > 60
    }

    [Fact]
    public void EveryOtherFieldIsCheckedWithItsOwnMessage()
    {
        var errors = Validate(Valid with
        {
            Requests = null, KeyCount = 0, ValueBytes = -1, Concurrency = 9, TimeoutMs = 0, KeyPrefix = "has space",
            Backend = (CacheBackend)5,
        });
        Assert.Equal(["backend", "concurrency", "keyCount", "keyPrefix", "requests", "timeoutMs", "valueBytes"], errors.Keys.Order());
    }

    [Fact]
    public void VariantsAreCheckedOneByOneAndKeyedByTheirPlace()
    {
        Assert.Empty(Validate(Valid with { Requests = 100, Phases = [CachePhase.Write], Variants = [new(), new() { ValueBytes = 1024 }] }));
        var errors = Validate(Valid with
        {
            Requests = 100, Phases = [CachePhase.Write],
            Variants = [new() { Name = "A" }, new() { Name = "A", Backend = CacheBackend.Redis }, new() { ValueBytes = -1 }, new() { Backend = CacheBackend.Redis, Connection = "secondary" }],
        });
        Assert.Equal(["variants[1].connection", "variants[1].name", "variants[2].valueBytes", "variants[3].connection"], errors.Keys.Order());
        Assert.Contains("Name the connection string", errors["variants[1].connection"].Single());
        Assert.Contains("ConnectionStrings:secondary", errors["variants[3].connection"].Single());
        Assert.Contains("variants", Validate(Valid with { Variants = [new()] }).Keys);
        Assert.Contains("interleaveBlock", Validate(Valid with { InterleaveBlock = 0 }).Keys);
    }

    [Fact]
    public void TheLimitOnRequestsCoversEveryVariant()
    {
        var two = Valid with { Phases = [CachePhase.Write], Variants = [new(), new()] };
        Assert.Empty(Validate(two with { Requests = 500 }));                   // 500 × 2 variants = 1,000
        Assert.Contains("variants", Validate(two with { Requests = 501 })["requests"].Single());
    }

    [Fact]
    public void AVariantsSeriesArePhaseByPhaseAndVariantByVariant()
    {
        var p = Valid with { Phases = [CachePhase.Write, CachePhase.ReadMiss], Variants = [new(), new() { Name = "big", ValueBytes = 1024 }] };
        Assert.Equal(["A/write", "big/write", "A/read-miss", "big/read-miss"], p.Series());
        Assert.Equal(["write", "read-miss"], (p with { Variants = null }).Series());
        Assert.Equal(1024, p.Resolved()[1].Parameters.ValueBytes);
        Assert.Null(p.Resolved()[1].Parameters.Variants);
    }
}
