//! The laid-out pages written as a PDF/A-3b file by krilla: the fonts embedded and
//! subset, the metadata stated (no clock: the dates are the document's issue date;
//! krilla derives its identifiers from the content, so the same pages give the same
//! bytes).

use super::layout::{Op, Page, Rgb, PAGE_HEIGHT, PAGE_WIDTH};
use super::sheet::Meta;
use super::text::{Metrics, BOLD, REGULAR};
use super::{ImageFormat, Logo, PdfError};
use chrono::Datelike;
use krilla::color::rgb;
use krilla::configure::{Archival, ConfigurationBuilder};
use krilla::geom::{PathBuilder, Point, Rect, Size, Transform};
use krilla::image::Image;
use krilla::metadata::{DateTime, Metadata};
use krilla::num::NormalizedF32;
use krilla::page::PageSettings;
use krilla::paint::Fill;
use krilla::text::Font;
use krilla::{Document, SerializeSettings};

/// The settings of every PDF: PDF/A-3b; the fonts and the ICC profile compressed,
/// the pages' content streams not.
///
/// Why not the content streams: zlib at the PDF library's fixed level 6 was half of
/// the render, measured on the 500-line invoice (release, one run each): 10.9 ms and
/// 79 KB compressed, 6.6 ms and 320 KB not (benches/README.md, issue 17). A one-page
/// invoice grows by a few KB (its fonts, compressed, are most of it); a long one
/// stays a few hundred KB, far below what Peppol carries.
fn settings() -> Result<SerializeSettings, PdfError> {
    let configuration = ConfigurationBuilder::new()
        .with_archival_validator(Archival::A3_B)
        .finish()
        .map_err(|e| PdfError(format!("PDF/A-3b cannot be configured: {e:?}")))?;
    Ok(SerializeSettings {
        configuration,
        compress_content_streams: false,
        ..SerializeSettings::default()
    })
}

/// The krilla image of a logo.
pub(crate) fn image(logo: &Logo) -> Result<Image, String> {
    let data: Vec<u8> = logo.bytes.to_vec();
    match logo.format {
        ImageFormat::Png => Image::from_png(data.into(), false),
        ImageFormat::Jpeg => Image::from_jpeg(data.into(), false),
    }
}

/// The metadata: title, author, language, dates (the issue date), document id.
fn metadata(meta: &Meta) -> Metadata {
    let d = meta.date;
    let year = u16::try_from(d.year()).unwrap_or(2000);
    let month = u8::try_from(d.month()).unwrap_or(1);
    let day = u8::try_from(d.day()).unwrap_or(1);
    let date = DateTime::new(year)
        .month(month)
        .day(day)
        .hour(0)
        .minute(0)
        .second(0)
        .utc_offset_hour(0)
        .utc_offset_minute(0);
    let mut m = Metadata::new()
        .title(meta.title.clone())
        .language(meta.language.clone())
        .creator("invoicing-core".to_owned())
        .producer("invoicing-core (krilla)".to_owned())
        .creation_date(date)
        .document_id(meta.id.clone());
    if !meta.author.is_empty() {
        m = m.authors(vec![meta.author.clone()]);
    }
    m
}

fn fill(color: Rgb) -> Fill {
    Fill {
        paint: rgb::Color::new(color[0], color[1], color[2]).into(),
        opacity: NormalizedF32::ONE,
        rule: krilla::paint::FillRule::default(),
    }
}

/// A font as the PDF embeds it and as the layout measured it.
pub(crate) struct Face {
    font: Font,
    metrics: &'static Metrics,
}

/// Writes the pages as a PDF/A-3b file.
pub(crate) fn write(pages: &[Page], meta: &Meta, logo: Option<&Logo>) -> Result<Vec<u8>, PdfError> {
    let (regular, bold) = Metrics::embedded()?;
    let face = |data: &'static [u8], metrics: &'static Metrics| -> Result<Face, PdfError> {
        Ok(Face {
            font: Font::new(data.into(), 0)
                .ok_or_else(|| PdfError("the embedded font cannot be read".into()))?,
            metrics,
        })
    };
    let fonts = (face(REGULAR, regular)?, face(BOLD, bold)?);
    let logo = logo.map(image).transpose().map_err(PdfError)?;
    let page_settings = PageSettings::from_wh(PAGE_WIDTH, PAGE_HEIGHT)
        .ok_or_else(|| PdfError("the page size is invalid".into()))?;
    let mut document = Document::new_with(settings()?);
    document.set_metadata(metadata(meta));
    for ops in pages {
        let mut page = document.start_page_with(page_settings.clone());
        let mut surface = page.surface();
        // Shapes first (backgrounds and rules, one path per colour; the logo), then
        // the texts over them, each style in one run: one graphics state per colour
        // and per style instead of one per shape and per text.
        let mut paths: Vec<(Rgb, PathBuilder)> = Vec::new();
        for o in ops {
            match o {
                Op::Rect { x, y, w, h, color } => {
                    let Some(r) = Rect::from_xywh(*x, *y, *w, *h) else {
                        continue;
                    };
                    if let Some((_, pb)) = paths.iter_mut().find(|(c, _)| c == color) {
                        pb.push_rect(r);
                    } else {
                        let mut pb = PathBuilder::new();
                        pb.push_rect(r);
                        paths.push((*color, pb));
                    }
                }
                Op::Logo { x, y, w, h } => {
                    if let (Some(image), Some(size)) = (&logo, Size::from_wh(*w, *h)) {
                        surface.push_transform(&Transform::from_translate(*x, *y));
                        surface.draw_image(image.clone(), size);
                        surface.pop();
                    }
                }
                Op::Text { .. } => {}
            }
        }
        for (color, pb) in paths {
            if let Some(path) = pb.finish() {
                surface.set_fill(Some(fill(color)));
                surface.draw_path(&path);
            }
        }
        for run in super::layout::runs(ops, fonts.0.metrics, fonts.1.metrics) {
            surface.set_fill(Some(fill(run.color)));
            let face = if run.bold { &fonts.1 } else { &fonts.0 };
            surface.draw_glyphs(
                Point::from_xy(run.x, run.y),
                &run.glyphs,
                face.font.clone(),
                &run.text,
                run.size,
                false,
            );
        }
        surface.finish();
        page.finish();
    }
    document
        .finish()
        .map_err(|e| PdfError(format!("{e:?}").chars().take(500).collect()))
}

/// Whether krilla can write a PDF/A-3b page holding the logo (decodes it).
pub(crate) fn logo_renders(logo: &Logo) -> Result<(), String> {
    let image = image(logo)?;
    let mut document = Document::new_with(settings().map_err(|e| e.0)?);
    let date = DateTime::new(2000).month(1).day(1);
    document.set_metadata(Metadata::new().title("logo".to_owned()).creation_date(date));
    let mut page = document.start_page_with(PageSettings::from_wh(100.0, 100.0).ok_or("page")?);
    let mut surface = page.surface();
    if let Some(size) = Size::from_wh(10.0, 10.0) {
        surface.draw_image(image, size);
    }
    surface.finish();
    page.finish();
    document.finish().map(|_| ()).map_err(|e| {
        format!("the logo cannot be embedded: {e:?}")
            .chars()
            .take(200)
            .collect()
    })
}
