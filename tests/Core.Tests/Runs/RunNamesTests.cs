using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;

namespace BenchDashboard.Core.Tests.Runs;

public class RunNamesTests
{
    static Run RunOf(HttpParameters p, string? benchmark = null) => new() { Kind = "http", ParametersJson = Json.Serialize(p), BenchmarkName = benchmark };

    [Fact]
    public void ARunIsNamedByItsBenchmarkItsSettingBothOrAsAdHoc()
    {
        var plain = new HttpParameters { Url = "http://127.0.0.1/delay?ms=2", Requests = 1 };
        var named = plain with { Setting = "delay-2ms" };

        Assert.Equal("(ad hoc)", RunNames.Title(RunOf(plain)));
        Assert.Equal("delay-2ms", RunNames.Title(RunOf(named)));
        Assert.Equal("nightly", RunNames.Title(RunOf(plain, "nightly")));
        Assert.Equal("nightly · delay-2ms", RunNames.Title(RunOf(named, "nightly")));
        Assert.Null(RunNames.Setting("not json"));
        // An ad-hoc run whose variants took turns is named by them (an unnamed variant by its letter).
        var interleaved = plain with { Variants = [new() { Name = "fast" }, new() { Url = "http://127.0.0.1/delay?ms=6" }] };
        Assert.Equal("variants fast, B", RunNames.Title(RunOf(interleaved)));
        Assert.Equal("nightly", RunNames.Title(RunOf(interleaved, "nightly")));
    }

    [Fact]
    public void EachVariantRunOnItsOwnCarriesItsNameAndAPlainRunStoresNoSettingField()
    {
        var kind = new HttpKind(Microsoft.Extensions.Options.Options.Create(new RunLimits()), new BenchDashboard.Core.Security.TargetPolicy(new BenchDashboard.Core.Security.TargetOptions(), false, null));
        var p = new HttpParameters { Url = "http://127.0.0.1/delay?ms=2", Requests = 1, Variants = [new() { Name = "delay-2ms" }, new() { Name = "delay-10ms", Url = "http://127.0.0.1/delay?ms=10" }] };

        Assert.Equal(["delay-2ms", "delay-10ms"], kind.SeparateVariants(p).Select(v => v.Parameters.Setting));
        // Runs of the same parameters must stay identical as stored (the history of identical runs compares the JSON).
        Assert.DoesNotContain("setting", Json.Serialize(p with { Variants = null }));
    }
}
