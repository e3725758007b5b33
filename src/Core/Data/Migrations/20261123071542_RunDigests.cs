using System;
using Microsoft.EntityFrameworkCore.Migrations;
using BenchDashboard.Core.Stores;

#nullable disable

namespace BenchDashboard.Core.Data.Migrations
{
    public partial class RunDigests : Migration
    {
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.CreateTable(
                name: "RunDigests",
                columns: table => new
                {
                    RunId = table.Column<long>(type: "INTEGER", nullable: false),
                    Basis = table.Column<string>(type: "TEXT", maxLength: 16, nullable: false),
                    Version = table.Column<int>(type: "INTEGER", nullable: false),
                    Json = table.Column<string>(type: "TEXT", nullable: false)
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
                    RunId = table.Column<long>(type: "INTEGER", nullable: false),
                    Basis = table.Column<string>(type: "TEXT", maxLength: 16, nullable: false),
                    Series = table.Column<string>(type: "TEXT", maxLength: 64, nullable: false),
                    Count = table.Column<int>(type: "INTEGER", nullable: false),
                    Data = table.Column<byte[]>(type: "BLOB", nullable: false)
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
        }

        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropTable(
                name: "RunDigests");

            migrationBuilder.DropTable(
                name: "RunLatencies");
        }
    }
}
