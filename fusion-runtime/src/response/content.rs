//! Content beyond text: images, audio, resource links and embedded resources after a
//! response's text blocks.
//!
//! MCP defines five kinds of content block; fusion writes its wire format (wire format §1, §2) as text
//! blocks, and a [`ToolResponse`](crate::ToolResponse) can carry the other four after them
//! ([`ToolResponse::with_content`](crate::ToolResponse::with_content)). The text blocks, and so
//! the wire text a model reads, do not change; the extra blocks follow in the order they were
//! added. Binary data (image, audio, blob) is base64-encoded on the wire, as MCP requires.
//!
//! ```
//! use fusion_runtime::ResponseBuilder;
//! use fusion_runtime::content::{Content, EmbeddedResource, ResourceLink};
//!
//! let response = ResponseBuilder::text("Invoice INV-0001 as a PDF and a chart.")
//!     .build()
//!     .with_content(Content::image(b"\x89PNG", "image/png"))
//!     .with_content(ResourceLink::new("file:///invoices/INV-0001.pdf", "INV-0001.pdf")
//!         .mime_type("application/pdf"))
//!     .with_content(EmbeddedResource::text("billing://rules", "Amounts are in cents."));
//! assert_eq!(response.blocks().len(), 1);
//! assert_eq!(response.contents().len(), 3);
//! assert_eq!(
//!     response.to_json(),
//!     concat!(
//!         r#"{"content":[{"type":"text","text":"Invoice INV-0001 as a PDF and a chart."},"#,
//!         r#"{"type":"image","data":"iVBORw==","mimeType":"image/png"},"#,
//!         r#"{"type":"resource_link","uri":"file:///invoices/INV-0001.pdf","name":"INV-0001.pdf","mimeType":"application/pdf"},"#,
//!         r#"{"type":"resource","resource":{"uri":"billing://rules","text":"Amounts are in cents."}}]}"#,
//!     )
//! );
//! ```

use serde::Serialize;
use serde::ser::SerializeMap;

/// One content block after the text blocks of a response (MCP `ImageContent`, `AudioContent`,
/// `ResourceLink`, `EmbeddedResource`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    /// An image: base64 data and its MIME type (`{"type":"image","data","mimeType"}`).
    Image {
        /// The image, base64-encoded.
        data: String,
        /// Its MIME type, such as `image/png`.
        mime_type: String,
    },
    /// Audio: base64 data and its MIME type (`{"type":"audio","data","mimeType"}`).
    Audio {
        /// The audio, base64-encoded.
        data: String,
        /// Its MIME type, such as `audio/wav`.
        mime_type: String,
    },
    /// A link to a resource the client may read (`{"type":"resource_link",…}`).
    ResourceLink(ResourceLink),
    /// A resource carried in the result (`{"type":"resource","resource":{…}}`).
    Resource(EmbeddedResource),
}

impl Content {
    /// An image from its bytes (base64-encoded here) and MIME type.
    pub fn image(bytes: &[u8], mime_type: impl Into<String>) -> Self {
        Content::Image {
            data: base64(bytes),
            mime_type: mime_type.into(),
        }
    }

    /// An image already base64-encoded.
    pub fn image_base64(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Content::Image {
            data: data.into(),
            mime_type: mime_type.into(),
        }
    }

    /// Audio from its bytes (base64-encoded here) and MIME type.
    pub fn audio(bytes: &[u8], mime_type: impl Into<String>) -> Self {
        Content::Audio {
            data: base64(bytes),
            mime_type: mime_type.into(),
        }
    }

    /// Audio already base64-encoded.
    pub fn audio_base64(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Content::Audio {
            data: data.into(),
            mime_type: mime_type.into(),
        }
    }
}

/// A link to a resource: its URI and name, and optionally a title, a description, a MIME
/// type and a size in bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceLink {
    uri: String,
    name: String,
    title: Option<String>,
    description: Option<String>,
    mime_type: Option<String>,
    size: Option<u64>,
}

impl ResourceLink {
    /// A link to the resource at `uri`, named `name` (what a client lists it as).
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        ResourceLink {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
        }
    }

    /// Sets the title a client shows instead of the name.
    #[must_use]
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Sets what the resource is.
    #[must_use]
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Sets the resource's MIME type.
    #[must_use]
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// Sets the resource's size in bytes.
    #[must_use]
    pub fn size(mut self, bytes: u64) -> Self {
        self.size = Some(bytes);
        self
    }
}

impl From<ResourceLink> for Content {
    fn from(link: ResourceLink) -> Self {
        Content::ResourceLink(link)
    }
}

/// A resource carried in the result: its URI, optionally its MIME type, and its text or its
/// bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmbeddedResource {
    uri: String,
    mime_type: Option<String>,
    body: Body,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Body {
    Text(String),
    /// Base64.
    Blob(String),
}

impl EmbeddedResource {
    /// A text resource at `uri`.
    pub fn text(uri: impl Into<String>, text: impl Into<String>) -> Self {
        EmbeddedResource {
            uri: uri.into(),
            mime_type: None,
            body: Body::Text(text.into()),
        }
    }

    /// A binary resource at `uri`, from its bytes (base64-encoded here).
    pub fn blob(uri: impl Into<String>, bytes: &[u8]) -> Self {
        EmbeddedResource {
            uri: uri.into(),
            mime_type: None,
            body: Body::Blob(base64(bytes)),
        }
    }

    /// Sets the resource's MIME type.
    #[must_use]
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }
}

impl From<EmbeddedResource> for Content {
    fn from(resource: EmbeddedResource) -> Self {
        Content::Resource(resource)
    }
}

impl Serialize for Content {
    /// The MCP content block, members in the specification's order, optional ones only when
    /// set.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        match self {
            Content::Image { data, mime_type } | Content::Audio { data, mime_type } => {
                let kind = if matches!(self, Content::Image { .. }) {
                    "image"
                } else {
                    "audio"
                };
                map.serialize_entry("type", kind)?;
                map.serialize_entry("data", data)?;
                map.serialize_entry("mimeType", mime_type)?;
            }
            Content::ResourceLink(link) => {
                map.serialize_entry("type", "resource_link")?;
                map.serialize_entry("uri", &link.uri)?;
                map.serialize_entry("name", &link.name)?;
                let optional = [
                    ("title", &link.title),
                    ("description", &link.description),
                    ("mimeType", &link.mime_type),
                ];
                for (key, value) in optional {
                    if let Some(value) = value {
                        map.serialize_entry(key, value)?;
                    }
                }
                if let Some(size) = link.size {
                    map.serialize_entry("size", &size)?;
                }
            }
            Content::Resource(resource) => {
                map.serialize_entry("type", "resource")?;
                map.serialize_entry("resource", &ResourceContents(resource))?;
            }
        }
        map.end()
    }
}

/// The `resource` member of an embedded resource.
struct ResourceContents<'a>(&'a EmbeddedResource);

impl Serialize for ResourceContents<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let resource = self.0;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("uri", &resource.uri)?;
        if let Some(mime_type) = &resource.mime_type {
            map.serialize_entry("mimeType", mime_type)?;
        }
        match &resource.body {
            Body::Text(text) => map.serialize_entry("text", text)?,
            Body::Blob(blob) => map.serialize_entry("blob", blob)?,
        }
        map.end()
    }
}

/// Standard base64 with padding (RFC 4648 §4), as MCP's `data` and `blob` members take it.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for (i, shift) in [18u32, 12, 6, 0].into_iter().enumerate() {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> shift) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ResponseBuilder;

    #[test]
    fn base64_is_rfc_4648_with_padding() {
        let cases: [(&[u8], &str); 7] = [
            (b"", ""),
            (b"f", "Zg=="),
            (b"fo", "Zm8="),
            (b"foo", "Zm9v"),
            (b"foob", "Zm9vYg=="),
            (b"fooba", "Zm9vYmE="),
            (b"\xff\xfe\x00", "//4A"),
        ];
        for (bytes, encoded) in cases {
            assert_eq!(base64(bytes), encoded);
        }
    }

    #[test]
    fn every_kind_serializes_as_its_mcp_content_block() {
        let json = |content: Content| serde_json::to_string(&content).unwrap_or_default();
        assert_eq!(
            json(Content::audio(b"RIFF", "audio/wav")),
            r#"{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"}"#
        );
        assert_eq!(
            json(Content::image_base64("AAAA", "image/gif")),
            r#"{"type":"image","data":"AAAA","mimeType":"image/gif"}"#
        );
        assert_eq!(
            json(
                ResourceLink::new("file:///a.csv", "a.csv")
                    .title("Invoices")
                    .description("All invoices")
                    .mime_type("text/csv")
                    .size(1024)
                    .into()
            ),
            r#"{"type":"resource_link","uri":"file:///a.csv","name":"a.csv","title":"Invoices","description":"All invoices","mimeType":"text/csv","size":1024}"#
        );
        assert_eq!(
            json(
                EmbeddedResource::blob("billing://logo", b"\x89PNG")
                    .mime_type("image/png")
                    .into()
            ),
            r#"{"type":"resource","resource":{"uri":"billing://logo","mimeType":"image/png","blob":"iVBORw=="}}"#
        );
    }

    #[test]
    fn contents_follow_the_text_blocks_and_leave_them_unchanged() {
        let plain = ResponseBuilder::text("data").rule("r").build();
        let with = plain
            .clone()
            .with_content(Content::image(b"x", "image/png"));
        assert_eq!(with.blocks(), plain.blocks());
        assert_eq!(with.text(), plain.text());
        assert_eq!(
            with.to_json(),
            r#"{"content":[{"type":"text","text":"data"},{"type":"text","text":"<domain_rules>\n- r\n</domain_rules>"},{"type":"image","data":"eA==","mimeType":"image/png"}]}"#
        );
        // An error envelope can carry content too, and keeps its `isError`.
        let error = crate::ToolError::not_found("gone")
            .into_response()
            .with_content(EmbeddedResource::text("log://1", "trace"));
        assert!(error.to_json().ends_with(
            r#"{"type":"resource","resource":{"uri":"log://1","text":"trace"}}],"isError":true}"#
        ));
    }
}
