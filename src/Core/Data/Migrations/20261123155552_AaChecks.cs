using BenchDashboard.Core.Stores;
﻿using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace BenchDashboard.Core.Data.Migrations
{
    public partial class AaChecks : Migration
    {
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.CreateTable(
                name: "AaChecks",
                columns: table => new
                {
                    Id = table.Column<int>(type: "INTEGER", nullable: false)
                        .Annotation("Sqlite:Autoincrement", true),
                    BenchmarkId = table.Column<int>(type: "INTEGER", nullable: false),
                    BenchmarkName = table.Column<string>(type: "TEXT", maxLength: 200, nullable: false),
                    CreatedUtcMs = table.Column<long>(type: "INTEGER", nullable: false),
                    Rounds = table.Column<int>(type: "INTEGER", nullable: false),
                    InterleavedRunIdsJson = table.Column<string>(type: "TEXT", nullable: false),
                    SeparateRunIdsJson = table.Column<string>(type: "TEXT", nullable: false)
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

            migrationBuilder.CreateIndex(
                name: "IX_AaChecks_BenchmarkId_Id",
                table: "AaChecks",
                columns: new[] { "BenchmarkId", "Id" });
        }

        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropTable(
                name: "AaChecks");
        }
    }
}
