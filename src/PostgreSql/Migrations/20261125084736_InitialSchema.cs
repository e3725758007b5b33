using System.Collections.Generic;
using Microsoft.EntityFrameworkCore.Migrations;
using Npgsql.EntityFrameworkCore.PostgreSQL.Metadata;

#nullable disable

namespace BenchDashboard.PostgreSql.Migrations
{
    /// <inheritdoc />
    public partial class InitialSchema : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.CreateTable(
                name: "Benchmarks",
                columns: table => new
                {
                    Id = table.Column<int>(type: "integer", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    Name = table.Column<string>(type: "character varying(200)", maxLength: 200, nullable: false),
                    Kind = table.Column<string>(type: "character varying(32)", maxLength: 32, nullable: false),
                    ParametersJson = table.Column<string>(type: "text", nullable: false),
                    CronSchedule = table.Column<string>(type: "character varying(100)", maxLength: 100, nullable: true),
                    TimeZone = table.Column<string>(type: "character varying(64)", maxLength: 64, nullable: false, defaultValue: "UTC"),
                    Enabled = table.Column<bool>(type: "boolean", nullable: false),
                    ThresholdsJson = table.Column<string>(type: "text", nullable: true),
                    CreatedUtcMs = table.Column<long>(type: "bigint", nullable: false),
                    Agents = table.Column<int>(type: "integer", nullable: true),
                    WebhookUrls = table.Column<List<string>>(type: "text[]", nullable: false, defaultValueSql: "'{}'"),
                    LastScheduledUtcMs = table.Column<long>(type: "bigint", nullable: true)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_Benchmarks", x => x.Id);
                });

            migrationBuilder.CreateTable(
                name: "AaChecks",
                columns: table => new
                {
                    Id = table.Column<int>(type: "integer", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    BenchmarkId = table.Column<int>(type: "integer", nullable: false),
                    BenchmarkName = table.Column<string>(type: "character varying(200)", maxLength: 200, nullable: false),
                    CreatedUtcMs = table.Column<long>(type: "bigint", nullable: false),
                    Rounds = table.Column<int>(type: "integer", nullable: false),
                    InterleavedRunIdsJson = table.Column<string>(type: "text", nullable: false),
                    SeparateRunIdsJson = table.Column<string>(type: "text", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_AaChecks", x => x.Id);
                    table.ForeignKey(
                        name: "FK_AaChecks_Benchmarks_BenchmarkId",
                        column: x => x.BenchmarkId,
                        principalTable: "Benchmarks",
                        principalColumn: "Id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateTable(
                name: "Runs",
                columns: table => new
                {
                    Id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    BenchmarkId = table.Column<int>(type: "integer", nullable: true),
                    BenchmarkName = table.Column<string>(type: "character varying(200)", maxLength: 200, nullable: true),
                    Kind = table.Column<string>(type: "character varying(32)", maxLength: 32, nullable: false),
                    ParametersJson = table.Column<string>(type: "text", nullable: false),
                    Status = table.Column<string>(type: "character varying(32)", maxLength: 32, nullable: false),
                    QueuedUtcMs = table.Column<long>(type: "bigint", nullable: false),
                    StartedUtcMs = table.Column<long>(type: "bigint", nullable: true),
                    EndedUtcMs = table.Column<long>(type: "bigint", nullable: true),
                    HeartbeatUtcMs = table.Column<long>(type: "bigint", nullable: true),
                    RunnerName = table.Column<string>(type: "character varying(200)", maxLength: 200, nullable: true),
                    CancelRequested = table.Column<bool>(type: "boolean", nullable: false),
                    CompletedRequests = table.Column<int>(type: "integer", nullable: false),
                    MeasuredSamples = table.Column<int>(type: "integer", nullable: true),
                    LiveJson = table.Column<string>(type: "text", nullable: true),
                    EnvironmentJson = table.Column<string>(type: "text", nullable: true),
                    CachingEvidenceJson = table.Column<string>(type: "text", nullable: true),
                    NotesJson = table.Column<string>(type: "text", nullable: true),
                    SummaryJson = table.Column<string>(type: "text", nullable: true),
                    Error = table.Column<string>(type: "text", nullable: true),
                    WebhooksCheckedUtcMs = table.Column<long>(type: "bigint", nullable: true),
                    Agents = table.Column<int>(type: "integer", nullable: true),
                    AgentsJson = table.Column<string>(type: "text", nullable: true)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_Runs", x => x.Id);
                    table.ForeignKey(
                        name: "FK_Runs_Benchmarks_BenchmarkId",
                        column: x => x.BenchmarkId,
                        principalTable: "Benchmarks",
                        principalColumn: "Id",
                        onDelete: ReferentialAction.SetNull);
                });

            migrationBuilder.CreateTable(
                name: "RunDigests",
                columns: table => new
                {
                    RunId = table.Column<long>(type: "bigint", nullable: false),
                    Basis = table.Column<string>(type: "character varying(16)", maxLength: 16, nullable: false),
                    Version = table.Column<int>(type: "integer", nullable: false),
                    Json = table.Column<string>(type: "text", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_RunDigests", x => new { x.RunId, x.Basis });
                    table.ForeignKey(
                        name: "FK_RunDigests_Runs_RunId",
                        column: x => x.RunId,
                        principalTable: "Runs",
                        principalColumn: "Id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateTable(
                name: "RunLatencies",
                columns: table => new
                {
                    RunId = table.Column<long>(type: "bigint", nullable: false),
                    Basis = table.Column<string>(type: "character varying(16)", maxLength: 16, nullable: false),
                    Series = table.Column<string>(type: "character varying(64)", maxLength: 64, nullable: false),
                    Count = table.Column<int>(type: "integer", nullable: false),
                    Data = table.Column<byte[]>(type: "bytea", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_RunLatencies", x => new { x.RunId, x.Basis, x.Series });
                    table.ForeignKey(
                        name: "FK_RunLatencies_Runs_RunId",
                        column: x => x.RunId,
                        principalTable: "Runs",
                        principalColumn: "Id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateTable(
                name: "Samples",
                columns: table => new
                {
                    RunId = table.Column<long>(type: "bigint", nullable: false),
                    Index = table.Column<int>(type: "integer", nullable: false),
                    OffsetNs = table.Column<long>(type: "bigint", nullable: false),
                    LatencyNs = table.Column<long>(type: "bigint", nullable: false),
                    LagNs = table.Column<long>(type: "bigint", nullable: true),
                    HeadersNs = table.Column<long>(type: "bigint", nullable: true),
                    ConnectNs = table.Column<long>(type: "bigint", nullable: true),
                    StatusCode = table.Column<int>(type: "integer", nullable: true),
                    Bytes = table.Column<long>(type: "bigint", nullable: false),
                    Error = table.Column<int>(type: "integer", nullable: false),
                    IsWarmup = table.Column<bool>(type: "boolean", nullable: false),
                    Connection = table.Column<int>(type: "integer", nullable: false),
                    Series = table.Column<string>(type: "character varying(64)", maxLength: 64, nullable: true),
                    Shard = table.Column<int>(type: "integer", nullable: true),
                    Hit = table.Column<bool>(type: "boolean", nullable: true)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_Samples", x => new { x.RunId, x.Index });
                    table.ForeignKey(
                        name: "FK_Samples_Runs_RunId",
                        column: x => x.RunId,
                        principalTable: "Runs",
                        principalColumn: "Id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateTable(
                name: "WebhookDeliveries",
                columns: table => new
                {
                    Id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    RunId = table.Column<long>(type: "bigint", nullable: false),
                    Url = table.Column<string>(type: "character varying(2000)", maxLength: 2000, nullable: false),
                    Event = table.Column<string>(type: "character varying(32)", maxLength: 32, nullable: false),
                    PayloadJson = table.Column<string>(type: "text", nullable: false),
                    Status = table.Column<string>(type: "character varying(16)", maxLength: 16, nullable: false),
                    Attempts = table.Column<int>(type: "integer", nullable: false),
                    CreatedUtcMs = table.Column<long>(type: "bigint", nullable: false),
                    NextAttemptUtcMs = table.Column<long>(type: "bigint", nullable: false),
                    LastAttemptUtcMs = table.Column<long>(type: "bigint", nullable: true),
                    LastStatusCode = table.Column<int>(type: "integer", nullable: true),
                    LastError = table.Column<string>(type: "text", nullable: true)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_WebhookDeliveries", x => x.Id);
                    table.ForeignKey(
                        name: "FK_WebhookDeliveries_Runs_RunId",
                        column: x => x.RunId,
                        principalTable: "Runs",
                        principalColumn: "Id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateIndex(
                name: "IX_AaChecks_BenchmarkId_Id",
                table: "AaChecks",
                columns: new[] { "BenchmarkId", "Id" });

            migrationBuilder.CreateIndex(
                name: "IX_Benchmarks_Name",
                table: "Benchmarks",
                column: "Name",
                unique: true);

            migrationBuilder.CreateIndex(
                name: "IX_Runs_BenchmarkId_Id",
                table: "Runs",
                columns: new[] { "BenchmarkId", "Id" });

            migrationBuilder.CreateIndex(
                name: "IX_Runs_Status",
                table: "Runs",
                column: "Status");

            migrationBuilder.CreateIndex(
                name: "IX_Runs_WebhooksCheckedUtcMs",
                table: "Runs",
                column: "WebhooksCheckedUtcMs",
                filter: "\"WebhooksCheckedUtcMs\" IS NULL");

            migrationBuilder.CreateIndex(
                name: "IX_WebhookDeliveries_RunId",
                table: "WebhookDeliveries",
                column: "RunId");

            migrationBuilder.CreateIndex(
                name: "IX_WebhookDeliveries_Status_NextAttemptUtcMs",
                table: "WebhookDeliveries",
                columns: new[] { "Status", "NextAttemptUtcMs" });
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropTable(
                name: "AaChecks");

            migrationBuilder.DropTable(
                name: "RunDigests");

            migrationBuilder.DropTable(
                name: "RunLatencies");

            migrationBuilder.DropTable(
                name: "Samples");

            migrationBuilder.DropTable(
                name: "WebhookDeliveries");

            migrationBuilder.DropTable(
                name: "Runs");

            migrationBuilder.DropTable(
                name: "Benchmarks");
        }
    }
}
